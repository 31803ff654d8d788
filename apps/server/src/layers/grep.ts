/** Searches of stored output, in a worker thread the host can stop: a scoped resource, terminated on release. */
import { Context, Effect, Layer } from "effect"
import type * as Render from "@switchboard/core/render"
import { createGrepRunner } from "../grep/grep-runner.js"

export class GrepRunner extends Context.Service<GrepRunner, Render.GrepRunner>()("@switchboard/server/GrepRunner") {
  static readonly make = (timeoutMs: number | undefined) =>
    Effect.map(
      Effect.acquireRelease(
        Effect.sync(() => createGrepRunner({ timeoutMs })),
        (runner) => Effect.promise(() => runner.close()),
      ),
      (runner) => runner.grep,
    )
  static readonly layer = (timeoutMs: number | undefined) => Layer.effect(GrepRunner, GrepRunner.make(timeoutMs))
}
