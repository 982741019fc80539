// In the (list) group so this skeleton wraps only the list: a builder page answers 404 with a real 404 status.
import { Skeleton, TableSkeleton } from "@/components/ui/skeleton";

export default function WorkflowsLoading() {
  return (
    <div className="space-y-6">
      <Skeleton className="h-7 w-40" />
      <TableSkeleton rows={6} />
    </div>
  );
}
