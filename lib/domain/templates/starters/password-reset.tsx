import { Button, Heading, Section, Text } from "@react-email/components";
import { sampleCompany, StarterLayout, styles, type StarterSource } from "./layout";

function PasswordResetEmail() {
  return (
    <StarterLayout preview={"Reset your {{ company.name }} password"}>
      <Heading as="h1" style={styles.heading}>
        Reset your password
      </Heading>
      <Text style={styles.text}>
        {"Hi {{ user.name }}, someone (hopefully you) asked to reset the password of your {{ company.name }} account."}
      </Text>
      <Section style={{ margin: "8px 0 24px" }}>
        <Button href="{{ resetUrl }}" style={styles.button}>
          Choose a new password
        </Button>
      </Section>
      <Text style={styles.muted}>
        {
          "The link expires in {{ expiresInMinutes }} minutes. The request came from {{ request.ip }} ({{ request.location }})."
        }
      </Text>
      <Text style={styles.muted}>If it was not you, ignore this email: your password stays as it is.</Text>
    </StarterLayout>
  );
}

export const passwordReset: StarterSource = {
  key: "password-reset",
  name: "Password reset",
  description: "A reset link with its expiry and where the request came from.",
  subject: "Reset your {{ company.name }} password",
  variables: {
    user: { name: "Ada Lovelace" },
    resetUrl: "https://app.example.com/reset?token=sample-token",
    expiresInMinutes: 60,
    request: { ip: "203.0.113.7", location: "London, United Kingdom" },
    company: sampleCompany,
  },
  Email: PasswordResetEmail,
};
