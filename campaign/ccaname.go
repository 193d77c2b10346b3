package campaign

import (
	"slices"

	"github.com/leolab/leolab/cc"
)

// DatasetCCA is one congestion control of the seed-000 dataset and the
// registry name of our implementation of it.
type DatasetCCA struct {
	Dataset  string // name in the dataset's file names and CSVs
	Registry string // name in the cc registry
}

// DatasetCCAs is the one table mapping the real dataset's nine controls to
// ours (../shared/data/README.md): "bbr" is BBRv3 (xanmod 6.19 kernel),
// "pcc" is PCC Vivace (in campaigns with DatasetServers, the hosts' own
// PCC-Kernel module: servers.go datasetPCC), and "ccp" is Copa deployed
// through CCP, broken:
// its runs kept the CCP datapath's initial window of 10 segments
// (throughput × RTT of every dedicated run is 14–18 KB at 31–412 ms), so
// ours is cc/fixed's 10-segment window, not our working Copa, which in
// the concurrent runs took 48–139 Mbit/s of the downlink the real ccp
// flow (0.03–0.44 Mbit/s) left to the others.
func DatasetCCAs() []DatasetCCA {
	return []DatasetCCA{
		{"bbr", "bbr3"}, {"bbr1", "bbr1"}, {"bbr2", "bbr2"}, {"ccp", "fixed"},
		{"cubic", "cubic"}, {"hybla", "hybla"}, {"leocc", "leocc"}, {"pcc", "pcc"}, {"vegas", "vegas"},
	}
}

// DatasetNames lists the dataset's CCA names in its order.
func DatasetNames() []string {
	var out []string
	for _, d := range DatasetCCAs() {
		out = append(out, d.Dataset)
	}
	return out
}

// RegistryName maps a campaign's cca value to a registry name: a registered
// name is kept, a dataset name is translated, anything else is returned as is
// (and fails Registered).
func RegistryName(name string) string {
	if _, ok := cc.Lookup(name); ok {
		return name
	}
	for _, d := range DatasetCCAs() {
		if d.Dataset == name {
			return d.Registry
		}
	}
	return name
}

// Registered reports whether a cca value names a registered controller,
// directly or through the dataset table.
func Registered(name string) bool {
	_, ok := cc.Lookup(RegistryName(name))
	return ok
}

// allowedCCAs lists what a cca axis accepts, for error messages.
func allowedCCAs() []string {
	out := cc.Names()
	for _, d := range DatasetCCAs() {
		if !slices.Contains(out, d.Dataset) && Registered(d.Dataset) {
			out = append(out, d.Dataset)
		}
	}
	return out
}
