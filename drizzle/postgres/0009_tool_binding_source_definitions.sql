CREATE TABLE "source_definitions" (
	"source_id" text NOT NULL,
	"name" text NOT NULL,
	"schema" jsonb NOT NULL,
	"synced_at" bigint NOT NULL,
	CONSTRAINT "source_definitions_source_id_name_pk" PRIMARY KEY("source_id","name")
);
--> statement-breakpoint
ALTER TABLE "tools" ADD COLUMN "binding" jsonb;--> statement-breakpoint
ALTER TABLE "source_definitions" ADD CONSTRAINT "source_definitions_source_id_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."sources"("id") ON DELETE cascade ON UPDATE no action;