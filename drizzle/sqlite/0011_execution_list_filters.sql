ALTER TABLE `tool_calls` ADD `namespace` text;--> statement-breakpoint
UPDATE `tool_calls` SET `namespace` = substr(`tool_path`, 1, instr(`tool_path`, '.') - 1) WHERE instr(`tool_path`, '.') > 1;--> statement-breakpoint
CREATE INDEX `tool_calls_namespace_idx` ON `tool_calls` (`namespace`,`execution_id`);--> statement-breakpoint
CREATE INDEX `executions_error_code_idx` ON `executions` (`error_code`,`id`) WHERE "executions"."error_code" is not null;