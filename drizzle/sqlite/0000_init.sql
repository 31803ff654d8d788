CREATE TABLE `api_keys` (
	`id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`hash` text NOT NULL,
	`scopes` text NOT NULL,
	`created_at` integer NOT NULL,
	`revoked_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_hash_unique` ON `api_keys` (`hash`);--> statement-breakpoint
CREATE TABLE `executions` (
	`id` text PRIMARY KEY NOT NULL,
	`code` text NOT NULL,
	`status` text NOT NULL,
	`started_at` integer NOT NULL,
	`duration_ms` integer NOT NULL,
	`result_text` text,
	`error_code` text,
	`error_message` text,
	`logs` text,
	`tool_call_count` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `sources` (
	`id` text PRIMARY KEY NOT NULL,
	`namespace` text NOT NULL,
	`kind` text NOT NULL,
	`config` text NOT NULL,
	`status` text NOT NULL,
	`last_synced_at` integer,
	`sync_error` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sources_namespace_unique` ON `sources` (`namespace`);--> statement-breakpoint
CREATE TABLE `tool_calls` (
	`id` text PRIMARY KEY NOT NULL,
	`execution_id` text NOT NULL,
	`tool_path` text NOT NULL,
	`encoding` text NOT NULL,
	`started_at` integer NOT NULL,
	`duration_ms` integer NOT NULL,
	`ok` integer NOT NULL,
	`error_code` text,
	`data_bytes` integer,
	FOREIGN KEY (`execution_id`) REFERENCES `executions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `tool_calls_execution_idx` ON `tool_calls` (`execution_id`);--> statement-breakpoint
CREATE TABLE `tool_shapes` (
	`tool_id` text NOT NULL,
	`encoding` text NOT NULL,
	`shape` text NOT NULL,
	`sample_count` integer NOT NULL,
	`first_seen_at` integer NOT NULL,
	`last_seen_at` integer NOT NULL,
	PRIMARY KEY(`tool_id`, `encoding`),
	FOREIGN KEY (`tool_id`) REFERENCES `tools`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `tools` (
	`id` text PRIMARY KEY NOT NULL,
	`source_id` text NOT NULL,
	`name` text NOT NULL,
	`path` text NOT NULL,
	`description` text,
	`input_schema` text,
	`output_schema` text,
	`annotations` text,
	`result_encoding` text,
	`synced_at` integer NOT NULL,
	FOREIGN KEY (`source_id`) REFERENCES `sources`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `tools_path_unique` ON `tools` (`path`);--> statement-breakpoint
CREATE UNIQUE INDEX `tools_source_name_unique` ON `tools` (`source_id`,`name`);