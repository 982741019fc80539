import { Button, Heading, Link, Section, Text } from "@react-email/components";
import { sampleCompany, StarterLayout, styles, type StarterSource } from "./layout";

function MagicLinkEmail() {
  return (
    <StarterLayout preview={"Your sign-in link for {{ company.name }}"}>
      <Heading as="h1" style={styles.heading}>
        Sign in with one click
      </Heading>
      <Text style={styles.text}>
        {
          "Use the button below to sign in to {{ company.name }} as {{ user.email }}. The link works once and expires in {{ expiresInMinutes }} minutes."
        }
      </Text>
      <Section style={{ margin: "8px 0 24px" }}>
        <Button href="{{ magicLinkUrl }}" style={styles.button}>
          Sign in
        </Button>
      </Section>
      <Text style={styles.muted}>Or paste this link into your browser:</Text>
      <Text style={styles.muted}>
        <Link href="{{ magicLinkUrl }}" style={styles.link}>
          {"{{ magicLinkUrl }}"}
        </Link>
      </Text>
      <Text style={styles.muted}>
        If you did not ask to sign in, you can ignore this email: nobody can sign in without the link.
      </Text>
    </StarterLayout>
  );
}

export const magicLink: StarterSource = {
  key: "magic-link",
  name: "Magic link",
  description: "A one-time sign-in link with its expiry, and the link as text for copying.",
  subject: "Your sign-in link for {{ company.name }}",
  variables: {
    user: { email: "ada@example.org" },
    magicLinkUrl: "https://app.example.com/auth/verify?token=sample-token",
    expiresInMinutes: 15,
    company: sampleCompany,
  },
  Email: MagicLinkEmail,
};
