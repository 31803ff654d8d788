CREATE TABLE "execution_result_parts" (
	"execution_id" text NOT NULL,
	"seq" integer NOT NULL,
	"text" text NOT NULL,
	CONSTRAINT "execution_result_parts_execution_id_seq_pk" PRIMARY KEY("execution_id","seq")
);
--> statement-breakpoint
ALTER TABLE "execution_result_parts" ADD CONSTRAINT "execution_result_parts_execution_id_executions_id_fk" FOREIGN KEY ("execution_id") REFERENCES "public"."executions"("id") ON DELETE cascade ON UPDATE no action;