import { Body, Container, Head, Hr, Html, Preview, Section, Text } from "@react-email/components";
import type { CSSProperties, ReactElement, ReactNode } from "react";

/** Its text is Liquid written as whole JS strings, so React adds no separators inside a tag. */
export interface StarterSource {
  key: string;
  name: string;
  description: string;
  subject: string;
  variables: Record<string, unknown>;
  Email: () => ReactElement;
}

export const styles = {
  heading: { fontSize: "22px", fontWeight: 600, lineHeight: "30px", margin: "0 0 16px", color: "#0f172a" },
  text: { fontSize: "15px", lineHeight: "24px", margin: "0 0 16px", color: "#334155" },
  muted: { fontSize: "13px", lineHeight: "20px", margin: "0 0 8px", color: "#64748b" },
  button: {
    backgroundColor: "#4f46e5",
    borderRadius: "6px",
    color: "#ffffff",
    fontSize: "15px",
    fontWeight: 600,
    padding: "12px 20px",
    textDecoration: "none",
  },
  link: { color: "#4f46e5", wordBreak: "break-all" },
  code: {
    fontFamily: "ui-monospace, SFMono-Regular, Menlo, monospace",
    fontSize: "13px",
    backgroundColor: "#f1f5f9",
    borderRadius: "4px",
    padding: "10px 12px",
    color: "#0f172a",
  },
} satisfies Record<string, CSSProperties>;

/** The frame every starter shares: a preheader, the company's name on top and its address below. */
export function StarterLayout({ preview, children }: { preview: string; children: ReactNode }) {
  return (
    <Html lang="{{ locale }}" dir={"{{ dir }}" as "ltr"}>
      <Head />
      <Preview>{preview}</Preview>
      <Body
        style={{
          backgroundColor: "#f1f5f9",
          fontFamily: "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif",
          margin: 0,
          padding: "24px 0",
        }}
      >
        <Container style={{ backgroundColor: "#ffffff", borderRadius: "8px", maxWidth: "560px", padding: "32px" }}>
          <Text style={{ ...styles.muted, fontWeight: 600, color: "#4f46e5", margin: "0 0 24px" }}>
            {"{{ company.name }}"}
          </Text>
          {children}
          <Hr style={{ borderColor: "#e2e8f0", margin: "24px 0 16px" }} />
          <Section>
            <Text style={styles.muted}>{"{{ company.name }} · {{ company.address }}"}</Text>
          </Section>
        </Container>
      </Body>
    </Html>
  );
}

export const sampleCompany = { name: "Acme", address: "1 Market Street, Springfield" };
