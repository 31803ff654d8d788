/**
 * Node's stdio transport as the plugin's StdioSpawner, and Node's way with a server's paths as its StdioPaths: the
 * host's layer for running stdio sources.
 */
import { Layer } from "effect"
import { StdioPaths, StdioSpawner } from "../stdio-spawner.js"
import type { SpawnStdio } from "../stdio-spawner.js"
import { pinNodeStdio } from "./stdio-paths.js"
import { BoundedStdioTransport } from "./stdio-transport.js"

export const spawnNodeStdio: SpawnStdio = (server, onStderr, options) =>
  new BoundedStdioTransport(server, (chunk) => onStderr(chunk.toString("utf8")), undefined, options?.maxToolResultNodes)

export const nodeStdioLayer: Layer.Layer<StdioSpawner | StdioPaths> = Layer.mergeAll(
  Layer.succeed(StdioSpawner, spawnNodeStdio),
  Layer.succeed(StdioPaths, pinNodeStdio),
)
