import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Table, TBody, Td, Th, THead } from "@/components/ui/table";
import { Timestamp } from "@/components/ui/timestamp";
import { StatusCounts } from "./status-counts";

export interface BatchRowView {
  id: string;
  createdAt: Date;
  sandbox: boolean;
  count: number;
  counts: Record<string, number>;
}

/** Batches newest first; the id links to the batch. */
export function BatchTable({ batches }: { batches: BatchRowView[] }) {
  return (
    <Table label="Batches">
      <THead>
        <Th>Batch</Th>
        <Th>Created</Th>
        <Th>Mode</Th>
        <Th className="text-right">Messages</Th>
        <Th>By status</Th>
      </THead>
      <TBody>
        {batches.map((batch) => (
          <tr key={batch.id} className="hover:bg-slate-50">
            <Td>
              <Link
                href={`/batches/${batch.id}`}
                className="font-mono text-xs font-medium text-indigo-600 hover:underline"
              >
                {batch.id}
              </Link>
            </Td>
            <Td className="whitespace-nowrap text-slate-600">
              <Timestamp value={batch.createdAt} />
            </Td>
            <Td>{batch.sandbox ? <Badge tone="warning">sandbox</Badge> : <Badge tone="info">live</Badge>}</Td>
            <Td className="text-right tabular-nums">{batch.count.toLocaleString("en")}</Td>
            <Td className="min-w-48">
              <StatusCounts counts={batch.counts} />
            </Td>
          </tr>
        ))}
      </TBody>
    </Table>
  );
}
