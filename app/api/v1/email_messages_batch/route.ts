// POST /v1/email_messages_batch – the older path of POST /v1/batches (same handlers)
export { POST, GET, PUT, PATCH, DELETE } from "../batches/route";
