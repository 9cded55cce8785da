import type { AdminTimeseries } from '@likeness/contracts';
import { Area, AreaChart, Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatCentsAsDollars, formatCount } from '../utils/format';

type Day = AdminTimeseries['days'][number];

interface Series {
  key: 'signups' | 'revenueCents' | 'generations' | 'failedJobs';
  title: string;
  kind: 'bar' | 'area';
  color: string;
  format: (value: number) => string;
}

const series: readonly Series[] = [
  { key: 'signups', title: 'Sign-ups', kind: 'bar', color: 'var(--primary)', format: formatCount },
  {
    key: 'revenueCents',
    title: 'Revenue',
    kind: 'area',
    color: 'oklch(0.65 0.16 160)',
    format: formatCentsAsDollars,
  },
  { key: 'generations', title: 'Generations', kind: 'bar', color: 'var(--brand-to)', format: formatCount },
  { key: 'failedJobs', title: 'Failed jobs', kind: 'bar', color: 'var(--destructive)', format: formatCount },
];

const shortDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
/** "2026-11-21" (a UTC day) → "Nov 21". */
function dayLabel(date: string): string {
  return shortDay.format(new Date(`${date}T00:00:00Z`));
}

const axisTick = { fontSize: 11, fill: 'var(--muted-foreground)' };
/** A quiet period still gets a sensible scale (up to $1 of revenue, up to 4 of a count), not cents. */
function domainOf(total: number, emptyMax: number): [number, number | 'auto'] {
  return [0, total === 0 ? emptyMax : 'auto'];
}
const chartMargin = { top: 4, right: 4, bottom: 0, left: -12 };
const xAxis = { dataKey: 'label', tick: axisTick, tickLine: false, axisLine: false, minTickGap: 24 } as const;
const yAxis = { tick: axisTick, tickLine: false, axisLine: false, width: 56 } as const;

/**
 * The four daily series as small charts (recharts, loaded only with this screen). Each has a
 * text total beside it, so the numbers are there without reading the chart.
 */
export function ActivityCharts({ days }: { days: readonly Day[] }) {
  const data = days.map((day) => ({ ...day, label: dayLabel(day.date) }));
  return (
    <div className="grid gap-4 md:grid-cols-2">
      {series.map((item) => {
        const total = days.reduce((sum, day) => sum + day[item.key], 0);
        return (
          <figure key={item.key} className="flex min-w-0 flex-col gap-2 rounded-xl border p-4">
            <figcaption className="flex items-baseline justify-between gap-2">
              <span className="text-sm font-medium text-muted-foreground">{item.title}</span>
              <span className="text-lg font-semibold tabular-nums">{item.format(total)}</span>
            </figcaption>
            <div className="h-40" aria-hidden="true">
              <ResponsiveContainer width="100%" height="100%">
                {item.kind === 'area' ? (
                  <AreaChart data={data} margin={chartMargin} accessibilityLayer={false}>
                    <CartesianGrid vertical={false} stroke="var(--border)" />
                    <XAxis {...xAxis} />
                    <YAxis
                      {...yAxis}
                      domain={domainOf(total, 100)}
                      tickFormatter={(value: number) => formatCentsAsDollars(value).replace(/\.00$/, '')}
                    />
                    <Tooltip content={<ChartTooltip series={item} />} />
                    <Area
                      type="monotone"
                      dataKey={item.key}
                      stroke={item.color}
                      fill={item.color}
                      fillOpacity={0.18}
                      strokeWidth={2}
                      isAnimationActive={false}
                    />
                  </AreaChart>
                ) : (
                  <BarChart data={data} margin={chartMargin} accessibilityLayer={false}>
                    <CartesianGrid vertical={false} stroke="var(--border)" />
                    <XAxis {...xAxis} />
                    <YAxis {...yAxis} allowDecimals={false} domain={domainOf(total, 4)} />
                    <Tooltip content={<ChartTooltip series={item} />} cursor={{ fill: 'var(--muted)' }} />
                    <Bar dataKey={item.key} fill={item.color} radius={[3, 3, 0, 0]} isAnimationActive={false} />
                  </BarChart>
                )}
              </ResponsiveContainer>
            </div>
          </figure>
        );
      })}
    </div>
  );
}

function ChartTooltip({
  series: item,
  active,
  payload,
}: {
  series: Series;
  active?: boolean;
  payload?: readonly { payload?: Day & { label: string } }[];
}) {
  const day = payload?.[0]?.payload;
  if (!active || !day) return null;
  return (
    <div className="rounded-lg border bg-popover px-3 py-2 text-xs text-popover-foreground shadow-md">
      <p className="font-medium">{day.label}</p>
      <p className="tabular-nums">
        {item.title}: {item.format(day[item.key])}
      </p>
    </div>
  );
}
