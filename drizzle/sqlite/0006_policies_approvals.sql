CREATE TABLE `approvals` (
	`id` text PRIMARY KEY NOT NULL,
	`execution_id` text NOT NULL,
	`tool_path` text NOT NULL,
	`args` text,
	`reason` text NOT NULL,
	`rule_id` text,
	`status` text NOT NULL,
	`note` text,
	`key_id` text,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`decided_at` integer,
	`decided_by` text,
	`resume_lease_until` integer,
	`resumed_at` integer,
	`replay` text NOT NULL,
	FOREIGN KEY (`execution_id`) REFERENCES `executions`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `approvals_status_idx` ON `approvals` (`status`,`created_at`);--> statement-breakpoint
CREATE INDEX `approvals_resume_idx` ON `approvals` (`resumed_at`,`created_at`);--> statement-breakpoint
CREATE INDEX `approvals_execution_idx` ON `approvals` (`execution_id`);--> statement-breakpoint
CREATE TABLE `policies` (
	`id` text PRIMARY KEY NOT NULL,
	`pattern` text,
	`source` text,
	`annotation` text,
	`action` text NOT NULL,
	`reason` text,
	`origin` text NOT NULL,
	`created_at` integer NOT NULL
);
