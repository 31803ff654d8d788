/** Node's stdio transport as the plugin's StdioSpawner: the host's layer for running stdio sources. */
import { Layer } from "effect"
import { StdioSpawner } from "../stdio-spawner.js"
import type { SpawnStdio } from "../stdio-spawner.js"
import { BoundedStdioTransport } from "./stdio-transport.js"

export const spawnNodeStdio: SpawnStdio = (server, onStderr, options) =>
  new BoundedStdioTransport(server, (chunk) => onStderr(chunk.toString("utf8")), undefined, options?.maxToolResultNodes)

export const nodeStdioLayer: Layer.Layer<StdioSpawner> = Layer.succeed(StdioSpawner, spawnNodeStdio)
