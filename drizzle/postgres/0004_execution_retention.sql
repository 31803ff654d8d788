ALTER TABLE "executions" ADD COLUMN "keep_until" bigint;--> statement-breakpoint
CREATE INDEX "executions_started_at_idx" ON "executions" USING btree ("started_at","id");