import { Column, Heading, Hr, Row, Section, Text } from "@react-email/components";
import { sampleCompany, StarterLayout, styles, type StarterSource } from "./layout";

const cell = { ...styles.text, margin: "0" };
const amount = { ...cell, textAlign: "right" as const, whiteSpace: "nowrap" as const };

function ReceiptEmail() {
  return (
    <StarterLayout preview={"Receipt for order {{ order.number }}: {{ order.total | currency }}"}>
      <Heading as="h1" style={styles.heading}>
        {"Thanks for your order, {{ user.name }}"}
      </Heading>
      <Text style={styles.muted}>{"Order {{ order.number }} · {{ order.date }}"}</Text>
      <Section style={{ margin: "16px 0" }}>
        {"{% for item in items %}"}
        <Row style={{ borderBottom: "1px solid #e2e8f0" }}>
          <Column style={{ ...cell, padding: "8px 0" }}>{"{{ item.name }} × {{ item.quantity }}"}</Column>
          <Column style={{ ...amount, padding: "8px 0" }}>
            {"{{ item.price | times: item.quantity | currency }}"}
          </Column>
        </Row>
        {"{% endfor %}"}
      </Section>
      <Row>
        <Column style={cell}>Subtotal</Column>
        <Column style={amount}>{"{{ order.subtotal | currency }}"}</Column>
      </Row>
      <Row>
        <Column style={cell}>Tax</Column>
        <Column style={amount}>{"{{ order.tax | currency }}"}</Column>
      </Row>
      <Hr style={{ borderColor: "#e2e8f0", margin: "8px 0" }} />
      <Row>
        <Column style={{ ...cell, fontWeight: 600 }}>Total</Column>
        <Column style={{ ...amount, fontWeight: 600 }}>{"{{ order.total | currency }}"}</Column>
      </Row>
      <Text style={{ ...styles.muted, marginTop: "24px" }}>
        {
          '{{ items | size }} {{ items | size | pluralize: "item", "items" }}, paid with {{ order.paymentMethod }}. Keep this email for your records.'
        }
      </Text>
    </StarterLayout>
  );
}

export const receipt: StarterSource = {
  key: "receipt",
  name: "Receipt",
  description: "An order receipt: one row per line item (a Liquid loop), subtotal, tax and total.",
  subject: "Your {{ company.name }} receipt for order {{ order.number }}",
  variables: {
    user: { name: "Ada Lovelace" },
    order: {
      number: "A-1042",
      date: "March 3, 2026",
      subtotal: 53,
      tax: 4.24,
      total: 57.24,
      paymentMethod: "Visa ending in 4242",
    },
    items: [
      { name: "Notebook, dotted", quantity: 2, price: 12.5 },
      { name: "Fountain pen", quantity: 1, price: 24 },
      { name: "Ink cartridges (6)", quantity: 1, price: 4 },
    ],
    company: sampleCompany,
  },
  Email: ReceiptEmail,
};
