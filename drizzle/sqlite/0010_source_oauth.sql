CREATE TABLE `oauth_clients` (
	`source_id` text NOT NULL,
	`issuer` text NOT NULL,
	`redirect_uri` text NOT NULL,
	`client_id` text NOT NULL,
	`client_auth` text NOT NULL,
	`client_secret` text,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`source_id`, `issuer`, `redirect_uri`),
	FOREIGN KEY (`source_id`) REFERENCES `sources`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `oauth_states` (
	`id` text PRIMARY KEY NOT NULL,
	`source_id` text NOT NULL,
	`key_id` text,
	`redirect_uri` text NOT NULL,
	`request` text NOT NULL,
	`code_verifier` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	FOREIGN KEY (`source_id`) REFERENCES `sources`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `oauth_states_expires_idx` ON `oauth_states` (`expires_at`);--> statement-breakpoint
CREATE TABLE `source_auth` (
	`source_id` text PRIMARY KEY NOT NULL,
	`status` text NOT NULL,
	`issuer` text NOT NULL,
	`server` text NOT NULL,
	`resource` text,
	`client_id` text NOT NULL,
	`client_auth` text NOT NULL,
	`client_secret` text,
	`grant` text NOT NULL,
	`access_token` text,
	`refresh_token` text,
	`expires_at` integer,
	`scopes` text,
	`generation` integer NOT NULL,
	`refresh_lease_until` integer,
	`refresh_lease_owner` text,
	`connected_by` text,
	`error` text,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`source_id`) REFERENCES `sources`(`id`) ON UPDATE no action ON DELETE cascade
);
