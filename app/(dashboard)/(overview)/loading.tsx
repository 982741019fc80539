// In the (overview) group so this skeleton wraps only the Overview, not every dashboard page below it.
import { Skeleton, TableSkeleton } from "@/components/ui/skeleton";

// The Overview's shape while its counts load.
export default function OverviewLoading() {
  return (
    <div className="space-y-6">
      <Skeleton className="h-7 w-40" />
      <div className="grid grid-cols-2 gap-3 sm:grid-cols-4 xl:grid-cols-8">
        {Array.from({ length: 8 }, (_, index) => (
          <Skeleton key={index} className="h-20" />
        ))}
      </div>
      <Skeleton className="h-80 w-full" />
      <TableSkeleton rows={5} />
    </div>
  );
}
