import "server-only";
import NextAuth from "next-auth";
import { authConfig } from "@/lib/flows/auth/auth-config";

// The configuration lives in lib/flows/auth (tested there); it is built lazily, at the first request.
export const { handlers, auth, signIn, signOut } = NextAuth(() => authConfig());
