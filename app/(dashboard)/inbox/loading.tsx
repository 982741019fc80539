import { Skeleton, TableSkeleton } from "@/components/ui/skeleton";

export default function Loading() {
  return (
    <div className="space-y-4">
      <Skeleton className="h-7 w-40" />
      <div className="grid gap-6 lg:grid-cols-[22rem_1fr]">
        <TableSkeleton rows={8} />
        <Skeleton className="hidden h-96 lg:block" />
      </div>
    </div>
  );
}
