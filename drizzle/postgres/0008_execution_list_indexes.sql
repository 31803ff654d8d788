CREATE INDEX "executions_key_id_idx" ON "executions" USING btree ("key_id","id");--> statement-breakpoint
CREATE INDEX "executions_status_idx" ON "executions" USING btree ("status","id");