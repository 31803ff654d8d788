CREATE TABLE "oauth_clients" (
	"source_id" text NOT NULL,
	"issuer" text NOT NULL,
	"redirect_uri" text NOT NULL,
	"client_id" text NOT NULL,
	"client_auth" text NOT NULL,
	"client_secret" text,
	"created_at" bigint NOT NULL,
	CONSTRAINT "oauth_clients_source_id_issuer_redirect_uri_pk" PRIMARY KEY("source_id","issuer","redirect_uri")
);
--> statement-breakpoint
CREATE TABLE "oauth_states" (
	"id" text PRIMARY KEY NOT NULL,
	"source_id" text NOT NULL,
	"key_id" text,
	"redirect_uri" text NOT NULL,
	"request" text NOT NULL,
	"code_verifier" text NOT NULL,
	"created_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL,
	"used_at" bigint
);
--> statement-breakpoint
CREATE TABLE "source_auth" (
	"source_id" text PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"issuer" text NOT NULL,
	"server" text NOT NULL,
	"resource" text,
	"client_id" text NOT NULL,
	"client_auth" text NOT NULL,
	"client_secret" text,
	"grant" text NOT NULL,
	"access_token" text,
	"refresh_token" text,
	"expires_at" bigint,
	"scopes" text,
	"generation" integer NOT NULL,
	"refresh_lease_until" bigint,
	"refresh_lease_owner" text,
	"connected_by" text,
	"error" text,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "oauth_clients" ADD CONSTRAINT "oauth_clients_source_id_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "oauth_states" ADD CONSTRAINT "oauth_states_source_id_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "source_auth" ADD CONSTRAINT "source_auth_source_id_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "oauth_states_expires_idx" ON "oauth_states" USING btree ("expires_at");