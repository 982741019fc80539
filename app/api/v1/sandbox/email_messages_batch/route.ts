// POST /v1/sandbox/email_messages_batch – the older path of POST /v1/sandbox/batches (same handlers)
export { POST, GET, PUT, PATCH, DELETE } from "../batches/route";
