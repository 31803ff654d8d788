CREATE TABLE "api_keys" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"hash" text NOT NULL,
	"scopes" jsonb NOT NULL,
	"created_at" bigint NOT NULL,
	"revoked_at" bigint,
	CONSTRAINT "api_keys_hash_unique" UNIQUE("hash")
);
--> statement-breakpoint
CREATE TABLE "executions" (
	"id" text PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"status" text NOT NULL,
	"started_at" bigint NOT NULL,
	"duration_ms" bigint NOT NULL,
	"result_text" text,
	"error_code" text,
	"error_message" text,
	"logs" jsonb,
	"tool_call_count" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sources" (
	"id" text PRIMARY KEY NOT NULL,
	"namespace" text NOT NULL,
	"kind" text NOT NULL,
	"config" jsonb NOT NULL,
	"status" text NOT NULL,
	"last_synced_at" bigint,
	"sync_error" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL,
	CONSTRAINT "sources_namespace_unique" UNIQUE("namespace")
);
--> statement-breakpoint
CREATE TABLE "tool_calls" (
	"id" text PRIMARY KEY NOT NULL,
	"execution_id" text NOT NULL,
	"tool_path" text NOT NULL,
	"encoding" text NOT NULL,
	"started_at" bigint NOT NULL,
	"duration_ms" bigint NOT NULL,
	"ok" boolean NOT NULL,
	"error_code" text,
	"data_bytes" bigint
);
--> statement-breakpoint
CREATE TABLE "tool_shapes" (
	"tool_id" text NOT NULL,
	"encoding" text NOT NULL,
	"shape" jsonb NOT NULL,
	"sample_count" bigint NOT NULL,
	"first_seen_at" bigint NOT NULL,
	"last_seen_at" bigint NOT NULL,
	CONSTRAINT "tool_shapes_tool_id_encoding_pk" PRIMARY KEY("tool_id","encoding")
);
--> statement-breakpoint
CREATE TABLE "tools" (
	"id" text PRIMARY KEY NOT NULL,
	"source_id" text NOT NULL,
	"name" text NOT NULL,
	"path" text NOT NULL,
	"description" text,
	"input_schema" jsonb,
	"output_schema" jsonb,
	"annotations" jsonb,
	"result_encoding" text,
	"synced_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tool_calls" ADD CONSTRAINT "tool_calls_execution_id_executions_id_fk" FOREIGN KEY ("execution_id") REFERENCES "public"."executions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tool_shapes" ADD CONSTRAINT "tool_shapes_tool_id_tools_id_fk" FOREIGN KEY ("tool_id") REFERENCES "public"."tools"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tools" ADD CONSTRAINT "tools_source_id_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tool_calls_execution_idx" ON "tool_calls" USING btree ("execution_id");--> statement-breakpoint
CREATE UNIQUE INDEX "tools_path_unique" ON "tools" USING btree ("path");--> statement-breakpoint
CREATE UNIQUE INDEX "tools_source_name_unique" ON "tools" USING btree ("source_id","name");