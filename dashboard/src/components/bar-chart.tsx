const WIDTH = 600;
const HEIGHT = 120;

/** For the eye only (`aria-hidden`): the table beside it carries the figures. SVG attributes, as the CSP refuses styles. */
export function BarChart({ values }: { values: readonly number[] }) {
  const highest = Math.max(1, ...values);
  const slot = WIDTH / Math.max(1, values.length);
  const idle = values.every((value) => value === 0);
  return (
    <figure className="chart">
      <svg className="bar-chart" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" aria-hidden="true">
        {values.map((value, index) => {
          if (value === 0) return null;
          const height = (value / highest) * HEIGHT;
          return <rect key={index} x={index * slot + slot * 0.1} y={HEIGHT - height} width={slot * 0.8} height={height} />;
        })}
        <line className="baseline" x1={0} y1={HEIGHT} x2={WIDTH} y2={HEIGHT} vectorEffect="non-scaling-stroke" />
      </svg>
      {idle && <figcaption className="hint">No activity in this range</figcaption>}
    </figure>
  );
}
