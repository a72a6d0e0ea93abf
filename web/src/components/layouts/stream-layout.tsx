import type { ReactNode } from "react";
import { Link } from "wouter";
import { BRAND } from "@/config/event";
import { paths } from "@/config/paths";
import "./stream-layout.css";

interface StreamLayoutProps {
  title: string;
  stats?: ReactNode;
  player: ReactNode;
  belowPlayer?: ReactNode;
  chat: ReactNode;
}

/** The frame of the stream screen (no site shell): header, player column and chat column. */
export function StreamLayout({ title, stats, player, belowPlayer, chat }: StreamLayoutProps) {
  return (
    <div className="stream">
      <header className="stream-header">
        <Link href={paths.home} className="stream-brand">
          {BRAND}
        </Link>
        <h1 className="stream-title">{title}</h1>
        {stats ? <div className="stream-stats">{stats}</div> : null}
      </header>
      <main className="stream-body">
        <section className="stream-main" aria-label="Stream">
          {player}
          {belowPlayer}
        </section>
        <aside className="stream-chat" aria-label="Live chat">
          {chat}
        </aside>
      </main>
    </div>
  );
}

export function StreamStat({ icon, label, value }: { icon: ReactNode; label: string; value: string }) {
  return (
    <span className="stream-stat">
      {icon}
      <span className="sr-only">{label}: </span>
      <span>{value}</span>
    </span>
  );
}
