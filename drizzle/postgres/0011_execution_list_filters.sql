ALTER TABLE "tool_calls" ADD COLUMN "namespace" text;--> statement-breakpoint
UPDATE "tool_calls" SET "namespace" = split_part("tool_path", '.', 1) WHERE position('.' in "tool_path") > 1;--> statement-breakpoint
CREATE INDEX "executions_error_code_idx" ON "executions" USING btree ("error_code","id") WHERE "executions"."error_code" is not null;--> statement-breakpoint
CREATE INDEX "tool_calls_namespace_idx" ON "tool_calls" USING btree ("namespace","execution_id");