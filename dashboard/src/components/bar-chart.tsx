const WIDTH = 600;
const HEIGHT = 120;

/** For the eye only (`aria-hidden`): the table beside it carries the figures. SVG attributes, as the CSP refuses styles. */
export function BarChart({ values }: { values: readonly number[] }) {
  const highest = Math.max(1, ...values);
  const slot = WIDTH / Math.max(1, values.length);
  return (
    <svg className="bar-chart" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} preserveAspectRatio="none" aria-hidden="true">
      {values.map((value, index) => {
        const height = (value / highest) * HEIGHT;
        return <rect key={index} x={index * slot + slot * 0.1} y={HEIGHT - height} width={slot * 0.8} height={height} />;
      })}
    </svg>
  );
}
