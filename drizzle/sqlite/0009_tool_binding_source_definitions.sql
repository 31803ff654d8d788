CREATE TABLE `source_definitions` (
	`source_id` text NOT NULL,
	`name` text NOT NULL,
	`schema` text NOT NULL,
	`synced_at` integer NOT NULL,
	PRIMARY KEY(`source_id`, `name`),
	FOREIGN KEY (`source_id`) REFERENCES `sources`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `tools` ADD `binding` text;