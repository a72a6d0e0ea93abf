import { useRef, useState, type RefObject } from "react";
import { ChevronLeftIcon, ChevronRightIcon } from "@/components/ui/icons";
import { formatCount } from "@/lib/numbers";

/** Rows an admin list shows at once: thousands of buyers stay quick to open, search and scroll on a phone. */
export const LIST_PAGE_SIZE = 50;

export interface ListPage<T> {
  /** The rows of the current page. */
  rows: T[];
  /** 0-based, always within the list. */
  page: number;
  pageCount: number;
  total: number;
  /** 1-based positions of the page's first and last rows in the list. */
  from: number;
  to: number;
  setPage: (page: number) => void;
  /** Put on the list's panel: a page change brings its top into view. */
  topRef: RefObject<HTMLElement | null>;
}

/**
 * One page of `items`. A new `filterKey` (another search or filter) goes back to the first page; a list
 * that shrank under the current page shows its last page.
 */
export function useListPage<T>(items: T[], filterKey: string, pageSize = LIST_PAGE_SIZE): ListPage<T> {
  const [state, setState] = useState({ filterKey, page: 0 });
  const topRef = useRef<HTMLElement | null>(null);
  let current = state;
  if (state.filterKey !== filterKey) {
    // Remembered at once (React's update during render), so going back to an earlier search starts at page 1 too.
    current = { filterKey, page: 0 };
    setState(current);
  }
  const pageCount = Math.max(1, Math.ceil(items.length / pageSize));
  const page = Math.min(current.page, pageCount - 1);
  return {
    rows: items.length <= pageSize ? items : items.slice(page * pageSize, (page + 1) * pageSize),
    page,
    pageCount,
    total: items.length,
    from: page * pageSize + 1,
    to: Math.min(items.length, (page + 1) * pageSize),
    setPage: (next) => {
      setState({ filterKey, page: Math.max(0, Math.min(next, pageCount - 1)) });
      topRef.current?.scrollIntoView({ block: "start" });
    },
    topRef,
  };
}

/** "51–100 of 6,250" with Previous and Next, under a list longer than a page; nothing for a shorter one. */
export function ListPager<T>({ list, noun }: { list: ListPage<T>; noun: string }) {
  if (list.pageCount <= 1) return null;
  return (
    <nav className="list-pager" aria-label={`Pages of ${noun}`}>
      <button type="button" className="btn btn-outline btn-sm" disabled={list.page === 0} onClick={() => list.setPage(list.page - 1)}>
        <ChevronLeftIcon />
        Previous
      </button>
      <p className="list-pager-status" aria-live="polite">
        <span>
          <strong className="list-pager-range">
            {formatCount(list.from)}–{formatCount(list.to)}
          </strong>{" "}
          of {formatCount(list.total)} {noun}
        </span>
        <span className="list-pager-page">
          Page {list.page + 1} of {list.pageCount}
        </span>
      </p>
      <button type="button" className="btn btn-outline btn-sm" disabled={list.page >= list.pageCount - 1} onClick={() => list.setPage(list.page + 1)}>
        Next
        <ChevronRightIcon />
      </button>
    </nav>
  );
}
