import { Button, Column, Heading, Row, Section, Text } from "@react-email/components";
import { sampleCompany, StarterLayout, styles, type StarterSource } from "./layout";

function ShippingUpdateEmail() {
  return (
    <StarterLayout preview={"Order {{ order.number }} is on its way"}>
      <Heading as="h1" style={styles.heading}>
        {"Your order is on its way, {{ user.name }}"}
      </Heading>
      <Text style={styles.text}>
        {
          "Order {{ order.number }} left our warehouse with {{ shipment.carrier }}. It should arrive by {{ shipment.estimatedDelivery }}."
        }
      </Text>
      <Section style={{ margin: "8px 0 16px" }}>
        <Row>
          <Column style={{ ...styles.muted, margin: 0 }}>Tracking number</Column>
          <Column style={{ ...styles.text, margin: 0, textAlign: "right" }}>{"{{ shipment.trackingNumber }}"}</Column>
        </Row>
      </Section>
      <Section style={{ margin: "8px 0 24px" }}>
        <Button href="{{ shipment.trackingUrl }}" style={styles.button}>
          Track the parcel
        </Button>
      </Section>
      <Text style={styles.muted}>In this parcel:</Text>
      <Section>
        {"{% for item in items %}"}
        <Text style={{ ...styles.text, margin: "0 0 4px" }}>{"{{ item.quantity }} × {{ item.name }}"}</Text>
        {"{% endfor %}"}
      </Section>
    </StarterLayout>
  );
}

export const shippingUpdate: StarterSource = {
  key: "shipping-update",
  name: "Shipping update",
  description: "The carrier, tracking number and link, expected delivery date, and what is in the parcel.",
  subject: "Order {{ order.number }} has shipped",
  variables: {
    user: { name: "Ada Lovelace" },
    order: { number: "A-1042" },
    shipment: {
      carrier: "DHL",
      trackingNumber: "JD014600006281230704",
      trackingUrl: "https://track.example.com/JD014600006281230704",
      estimatedDelivery: "Thursday, March 5",
    },
    items: [
      { name: "Notebook, dotted", quantity: 2 },
      { name: "Fountain pen", quantity: 1 },
    ],
    company: sampleCompany,
  },
  Email: ShippingUpdateEmail,
};
