"use client";

import { useDeferredValue, useEffect, useMemo } from "react";
import { BlocksComposer } from "@/components/templates/blocks/blocks-composer";
import { blocksDocumentProblem, blocksToLiquidHtml, type BlocksDocument } from "@/lib/domain/templates/blocks.shared";

export interface CompiledBlocks {
  /** The Liquid HTML of the document, null while it has a problem. */
  html: string | null;
  problem: string | null;
}

function compile(document: BlocksDocument): CompiledBlocks {
  const problem = blocksDocumentProblem(document);
  if (problem) return { html: null, problem: `Block document: ${problem}` };
  try {
    return { html: blocksToLiquidHtml(document), problem: null };
  } catch (error) {
    return {
      html: null,
      problem: `The block document does not compile: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

/**
 * The body of a blocks template: the composer, and the document compiled to Liquid HTML in the
 * browser (the React renderer it needs cannot run in server code). Compiling is deferred, so the
 * composer stays responsive; the shell previews and saves the HTML reported through onCompiled.
 * Loaded on demand: code templates never download the email builder.
 */
export function BlocksBody({
  value,
  onChange,
  onCompiled,
}: {
  value: BlocksDocument;
  onChange: (next: BlocksDocument) => void;
  onCompiled: (compiled: CompiledBlocks) => void;
}) {
  const deferred = useDeferredValue(value);
  const compiled = useMemo(() => compile(deferred), [deferred]);
  useEffect(() => onCompiled(compiled), [compiled, onCompiled]);
  return (
    <div className="space-y-2">
      <BlocksComposer value={value} onChange={onChange} />
      {compiled.problem ? (
        <p className="text-sm text-red-700" data-testid="blocks-problem">
          {compiled.problem}
        </p>
      ) : null}
    </div>
  );
}
