CREATE TABLE "approvals" (
	"id" text PRIMARY KEY NOT NULL,
	"execution_id" text NOT NULL,
	"tool_path" text NOT NULL,
	"args" text,
	"reason" text NOT NULL,
	"rule_id" text,
	"status" text NOT NULL,
	"note" text,
	"key_id" text,
	"created_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL,
	"decided_at" bigint,
	"decided_by" text,
	"resume_lease_until" bigint,
	"resumed_at" bigint,
	"replay" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "policies" (
	"id" text PRIMARY KEY NOT NULL,
	"pattern" text,
	"source" text,
	"annotation" text,
	"action" text NOT NULL,
	"reason" text,
	"origin" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_execution_id_executions_id_fk" FOREIGN KEY ("execution_id") REFERENCES "public"."executions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "approvals_status_idx" ON "approvals" USING btree ("status","created_at");--> statement-breakpoint
CREATE INDEX "approvals_resume_idx" ON "approvals" USING btree ("resumed_at","created_at");--> statement-breakpoint
CREATE INDEX "approvals_execution_idx" ON "approvals" USING btree ("execution_id");