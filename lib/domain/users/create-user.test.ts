import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { memberships, users } from "@/db/schema";
import { AppError } from "@/lib/foundation/errors";
import { createTestWorkspace } from "@/lib/testing/fixtures";
import { createUser } from "./create-user";
import { verifyPassword } from "./password";

const uniqueEmail = (local: string) => `${local}-${Math.random().toString(36).slice(2, 10)}@Example.COM`;

describe("createUser", () => {
  it("stores a lower-cased email, a scrypt hash and a membership with the role", async () => {
    const { workspace } = await createTestWorkspace();
    const email = uniqueEmail("Ada");
    const user = await createUser({
      email: `  ${email} `,
      password: "analytical-engine",
      workspaceId: workspace.id,
      role: "ADMIN",
      name: "Ada",
    });
    expect(user).toMatchObject({ email: email.toLowerCase(), name: "Ada", role: "ADMIN", workspaceId: workspace.id });
    expect(user.id).toMatch(/^user_[0-9A-Za-z]{16}$/);
    expect(user).not.toHaveProperty("passwordHash");

    const db = await getDb();
    const [row] = await db.select().from(users).where(eq(users.id, user.id));
    expect(row.passwordHash).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(await verifyPassword("analytical-engine", row.passwordHash)).toBe(true);
    const [membership] = await db
      .select()
      .from(memberships)
      .where(and(eq(memberships.userId, user.id), eq(memberships.workspaceId, workspace.id)));
    expect(membership.role).toBe("ADMIN");
  });

  it("defaults the role to MEMBER", async () => {
    const { workspace } = await createTestWorkspace();
    const user = await createUser({ email: uniqueEmail("m"), password: "long-enough", workspaceId: workspace.id });
    expect(user.role).toBe("MEMBER");
  });

  it("refuses a duplicate email (any case) and writes nothing", async () => {
    const { workspace } = await createTestWorkspace();
    const email = uniqueEmail("dup");
    await createUser({ email, password: "long-enough", workspaceId: workspace.id });
    const error = await createUser({
      email: email.toUpperCase(),
      password: "long-enough",
      workspaceId: workspace.id,
    }).catch((e) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: "CONFLICT", param: "email" });
    expect(error.message).toContain(email.toLowerCase());
    const db = await getDb();
    expect(await db.select().from(memberships).where(eq(memberships.workspaceId, workspace.id))).toHaveLength(1);
  });

  it("rejects an invalid email, a short password and an unknown role", async () => {
    const { workspace } = await createTestWorkspace();
    await expect(
      createUser({ email: "not-an-email", password: "long-enough", workspaceId: workspace.id }),
    ).rejects.toMatchObject({
      param: "email",
    });
    await expect(
      createUser({ email: uniqueEmail("p"), password: "short", workspaceId: workspace.id }),
    ).rejects.toMatchObject({
      param: "password",
    });
    await expect(
      createUser({
        email: uniqueEmail("r"),
        password: "long-enough",
        workspaceId: workspace.id,
        role: "BOSS" as never,
      }),
    ).rejects.toMatchObject({ param: "role" });
  });

  it("rolls the user back when the membership cannot be written", async () => {
    const email = uniqueEmail("orphan");
    await expect(createUser({ email, password: "long-enough", workspaceId: "ws_0000000000000000" })).rejects.toThrow();
    const db = await getDb();
    expect(await db.select().from(users).where(eq(users.email, email.toLowerCase()))).toHaveLength(0);
  });
});
