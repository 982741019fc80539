import { InvalidCredentials } from "@/components/messages/invalid-credentials";

/** The 401 page (unauthorized() in a page): the Basic credentials name no live API key. */
export default function Unauthorized() {
  return <InvalidCredentials />;
}
