ALTER TABLE `executions` ADD `keep_until` integer;--> statement-breakpoint
CREATE INDEX `executions_started_at_idx` ON `executions` (`started_at`,`id`);