package campaign

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/leolab/leolab/metrics"
	"github.com/leolab/leolab/report"
)

// excludedFromFidelity is left out of the rank correlations: the real
// deployment of Copa through CCP was broken (near-zero throughput
// everywhere; ../shared/data/README.md).
const excludedFromFidelity = "ccp"

// Row is one comparison cell: simulated and real metrics side by side.
// Missing values (no run, no measurement, e.g. Tokyo) are NaN with N = 0.
type Row struct {
	Key
	Sim, Real Metrics
}

// datasetName is the name a cca value is compared under: the dataset's
// name when it has one (bbr3 → bbr, fixed → ccp), else the value.
func datasetName(label string) string {
	for _, d := range DatasetCCAs() {
		if d.Dataset == label {
			return label
		}
	}
	for _, d := range DatasetCCAs() {
		if d.Registry == label {
			return d.Dataset
		}
	}
	return label
}

func missing() Metrics { return Metrics{math.NaN(), math.NaN(), math.NaN(), 0} }

// Compare averages the simulated flows per key (over seeds) and sets them
// beside the real measurements. Rows are ordered by kind, direction, city
// and CCA (dataset order first).
func Compare(flows []FlowRow, real map[Key]Metrics) []Row {
	sim := map[Key]Metrics{}
	for _, f := range flows {
		k := Key{Kind: f.Kind, Direction: f.Direction, City: f.City, CCA: datasetName(f.Label)}
		m := sim[k]
		m.ThroughputMbps += f.ThroughputMbps
		m.RetransPerGB += f.RetransPerGB
		m.RTTInflation += f.RTTInflation
		m.N++
		sim[k] = m
	}
	var rows []Row
	for k, m := range sim {
		n := float64(m.N)
		r := Row{Key: k, Sim: Metrics{m.ThroughputMbps / n, m.RetransPerGB / n, m.RTTInflation / n, m.N}, Real: missing()}
		if rm, ok := real[k]; ok {
			r.Real = rm
		}
		rows = append(rows, r)
	}
	// Real cells of simulated (kind, direction, city) without a run: e.g. a
	// CCA that is not registered yet still shows its real numbers.
	cells := map[[3]string]bool{}
	for k := range sim {
		cells[[3]string{k.Kind, k.Direction, k.City}] = true
	}
	for k, m := range real {
		if _, ok := sim[k]; !ok && cells[[3]string{k.Kind, k.Direction, k.City}] {
			rows = append(rows, Row{Key: k, Sim: missing(), Real: m})
		}
	}
	slices.SortFunc(rows, func(a, b Row) int { return compareKeys(a.Key, b.Key) })
	return rows
}

func compareKeys(a, b Key) int {
	rank := func(list []string, v string) int {
		if i := slices.Index(list, v); i >= 0 {
			return i
		}
		return len(list)
	}
	return cmp.Or(
		cmp.Compare(rank(Kinds(), a.Kind), rank(Kinds(), b.Kind)),
		cmp.Compare(a.Direction, b.Direction),
		cmp.Compare(a.City, b.City),
		cmp.Compare(rank(DatasetNames(), a.CCA), rank(DatasetNames(), b.CCA)),
		cmp.Compare(a.CCA, b.CCA),
	)
}

// Average is the per-CCA mean over the cities that have both a simulated
// and a real value (the five calibration cities of the dataset), one row
// per CCA with City "mean"; CCAs without such a city are averaged over the
// simulated cities alone, with Real missing.
func Average(rows []Row, kind, direction string) []Row {
	acc := map[string]*[3]Metrics{} // sim and real where both exist, all sim
	var order []string
	for _, r := range rows {
		if r.Kind != kind || r.Direction != direction || r.Sim.N == 0 {
			continue
		}
		a, ok := acc[r.CCA]
		if !ok {
			a = &[3]Metrics{}
			acc[r.CCA] = a
			order = append(order, r.CCA)
		}
		add(&a[2], r.Sim)
		if r.Real.N > 0 {
			add(&a[0], r.Sim)
			add(&a[1], r.Real)
		}
	}
	var out []Row
	for _, c := range order {
		a := acc[c]
		if a[0].N == 0 {
			a[0] = a[2]
		}
		out = append(out, Row{Key: Key{kind, direction, "mean", c}, Sim: mean(a[0]), Real: mean(a[1])})
	}
	return out
}

func add(acc *Metrics, m Metrics) {
	acc.ThroughputMbps += m.ThroughputMbps
	acc.RetransPerGB += m.RetransPerGB
	acc.RTTInflation += m.RTTInflation
	acc.N++
}

func mean(m Metrics) Metrics {
	if m.N == 0 {
		return missing()
	}
	n := float64(m.N)
	return Metrics{m.ThroughputMbps / n, m.RetransPerGB / n, m.RTTInflation / n, m.N}
}

// Fidelity is the Spearman rank correlation of per-CCA mean throughput,
// simulated against real, for one scenario kind and direction.
type Fidelity struct {
	Kind, Direction string
	Rho             float64 // NaN when fewer than 3 CCAs can be compared
	CCAs            []string
}

// Spearman computes the fidelity of every (kind, direction) among rows:
// per-CCA mean throughput over the cities with real data, excluding ccp.
func Spearman(rows []Row) []Fidelity {
	var out []Fidelity
	for _, kind := range Kinds() {
		for _, dir := range []string{"downlink", "uplink"} {
			f := Fidelity{Kind: kind, Direction: dir, Rho: math.NaN()}
			var x, y []float64
			for _, a := range Average(rows, kind, dir) {
				if a.CCA == excludedFromFidelity || a.Real.N == 0 {
					continue
				}
				f.CCAs = append(f.CCAs, a.CCA)
				x, y = append(x, a.Sim.ThroughputMbps), append(y, a.Real.ThroughputMbps)
			}
			if len(x) >= 3 {
				if rho, err := metrics.Spearman(x, y); err == nil {
					f.Rho = rho
				}
			}
			out = append(out, f)
		}
	}
	return out
}

// String is e.g. "downlink dedicated: Spearman 0.83 over 8 CCAs".
func (f Fidelity) String() string {
	if math.IsNaN(f.Rho) {
		return fmt.Sprintf("%s %s: Spearman n/a (%d CCAs with both simulated and real data)", f.Direction, f.Kind, len(f.CCAs))
	}
	return fmt.Sprintf("%s %s: Spearman %.2f over %d CCAs (%v)", f.Direction, f.Kind, f.Rho, len(f.CCAs), f.CCAs)
}

// ResultsColumns is the schema of results.csv: one row per (kind,
// direction, city, cca), simulated and real side by side.
func ResultsColumns() []report.Column {
	f := func(key, title, unit string, d int) report.Column {
		return report.Column{Key: key, Title: title, Unit: unit, Kind: report.Float, Digits: d}
	}
	return []report.Column{
		{Key: "kind", Title: "kind", Kind: report.Text},
		{Key: "direction", Title: "direction", Kind: report.Text},
		{Key: "city", Title: "city", Kind: report.Text},
		{Key: "cca", Title: "CCA", Kind: report.Text},
		f("sim_throughput_mbps", "sim throughput", "Mbit/s", 1),
		f("sim_retrans_per_gb", "sim retrans", "per GB", 0),
		f("sim_rtt_inflation", "sim RTT infl.", "mean/min", 2),
		f("real_throughput_mbps", "real throughput", "Mbit/s", 1),
		f("real_retrans_per_gb", "real retrans", "per GB", 0),
		f("real_rtt_inflation", "real RTT infl.", "mean/min", 2),
	}
}

// ResultsTable is rows as a table of ResultsColumns.
func ResultsTable(title, name string, rows []Row) report.Table {
	t := report.Table{Title: title, Name: name, Columns: ResultsColumns()}
	for _, r := range rows {
		t.Rows = append(t.Rows, []report.Cell{
			report.Str(r.Kind), report.Str(r.Direction), report.Str(r.City), report.Str(r.CCA),
			report.Num(r.Sim.ThroughputMbps), report.Num(r.Sim.RetransPerGB), report.Num(r.Sim.RTTInflation),
			report.Num(r.Real.ThroughputMbps), report.Num(r.Real.RetransPerGB), report.Num(r.Real.RTTInflation),
		})
	}
	return t
}
