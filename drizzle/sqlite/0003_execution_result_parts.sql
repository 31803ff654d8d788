CREATE TABLE `execution_result_parts` (
	`execution_id` text NOT NULL,
	`seq` integer NOT NULL,
	`text` text NOT NULL,
	PRIMARY KEY(`execution_id`, `seq`),
	FOREIGN KEY (`execution_id`) REFERENCES `executions`(`id`) ON UPDATE no action ON DELETE cascade
);
