// What a report can be grouped by, as the page's tabs, the table's heading and the CSV name them.
import type { ReportDimension } from "#server/reports/reports.db";

export const DIMENSIONS: { value: ReportDimension; label: string; heading: string }[] = [
  { value: "day", label: "By day", heading: "Day" },
  { value: "merchant", label: "By merchant", heading: "Merchant" },
  { value: "point_of_sale", label: "By point of sale", heading: "Point of sale" },
  { value: "terminal", label: "By terminal", heading: "Terminal" },
  { value: "channel", label: "By channel", heading: "Channel" },
  { value: "network", label: "By network", heading: "Network or scheme" },
];
