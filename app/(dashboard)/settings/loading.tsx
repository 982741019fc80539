import { Skeleton, TableSkeleton } from "@/components/ui/skeleton";

export default function SettingsLoading() {
  return (
    <div className="space-y-6">
      <Skeleton className="h-7 w-40" />
      <Skeleton className="h-28 w-full" />
      <Skeleton className="h-36 w-full" />
      <TableSkeleton rows={4} />
    </div>
  );
}
