// POST /v1/email_messages_batch/:id/cancel – the older path of POST /v1/batches/:id/cancel (same handlers)
export { POST, GET, PUT, PATCH, DELETE } from "../../../batches/[id]/cancel/route";
