import { Link } from "wouter";
import { AlertIcon } from "@/components/ui/site-icons";
import { paths } from "@/config/paths";

/** Any path the router does not know. */
export function NotFoundPage() {
  return (
    <div className="notice-page">
      <div className="card card-blood notice-card">
        <div className="notice-head">
          <AlertIcon width={28} height={28} />
          <h1 className="notice-title">404 Page Not Found</h1>
        </div>
        <p className="notice-text">Did you forget to add the page to the router?</p>
        <p className="not-found-code display" aria-hidden="true">
          404
        </p>
        <Link href={paths.home} className="btn btn-outline">
          Back to the home page
        </Link>
      </div>
    </div>
  );
}
