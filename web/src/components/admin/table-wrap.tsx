import { useEffect, useRef, useState, type ReactNode } from "react";

/**
 * The frame around a data table. When the table is wider than the screen (a phone, a long browser name) the
 * frame scrolls sideways, and then it becomes a named region in the tab order, so a keyboard can scroll it too;
 * a table that fits adds no tab stop.
 */
export function TableWrap({ label, className, children }: { label: string; className?: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [scrolls, setScrolls] = useState(false);

  useEffect(() => {
    const frame = ref.current;
    if (!frame) return;
    const measure = () => setScrolls(frame.scrollWidth > frame.clientWidth + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(frame);
    if (frame.firstElementChild) observer.observe(frame.firstElementChild);
    return () => observer.disconnect();
  }, []);

  return (
    <div ref={ref} className={className ? `table-wrap ${className}` : "table-wrap"} {...(scrolls ? { tabIndex: 0, role: "region", "aria-label": label } : {})}>
      {children}
    </div>
  );
}
