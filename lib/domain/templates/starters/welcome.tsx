import { Button, Heading, Section, Text } from "@react-email/components";
import { sampleCompany, StarterLayout, styles, type StarterSource } from "./layout";

function WelcomeEmail() {
  return (
    <StarterLayout preview={"Welcome to {{ company.name }}, {{ user.name }}"}>
      <Heading as="h1" style={styles.heading}>
        {"Welcome, {{ user.name }}!"}
      </Heading>
      <Text style={styles.text}>
        {"Thanks for joining {{ company.name }}. Your account for {{ user.email }} is ready."}
      </Text>
      <Text style={styles.text}>
        Three things to try first: set up your profile, invite your team, and send your first message.
      </Text>
      <Section style={{ margin: "8px 0 24px" }}>
        <Button href="{{ actionUrl }}" style={styles.button}>
          Get started
        </Button>
      </Section>
      <Text style={styles.text}>Questions? Reply to this email, a person reads every answer.</Text>
    </StarterLayout>
  );
}

export const welcome: StarterSource = {
  key: "welcome",
  name: "Welcome",
  description: "Greets a new user by name and links to the first step.",
  subject: "Welcome to {{ company.name }}, {{ user.name }}!",
  variables: {
    user: { name: "Ada Lovelace", email: "ada@example.org" },
    actionUrl: "https://app.example.com/start",
    company: sampleCompany,
  },
  Email: WelcomeEmail,
};
