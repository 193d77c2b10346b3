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
	// Hosts is what the dataset's hosts actually ran under that name, run
	// in campaigns with DatasetServers ("": Registry).
	Hosts string
}

// DatasetCCAs is the one table mapping the real dataset's nine controls to
// ours (../shared/data/README.md): "bbr" is BBRv3 (xanmod 6.19 kernel),
// "pcc" is PCC Vivace, and "ccp" is Copa deployed through CCP, broken:
// its runs kept the CCP datapath's initial window of 10 segments
// (throughput × RTT of every dedicated run is 14–18 KB at 31–412 ms), so
// ours is cc/fixed's 10-segment window, not our working Copa, which in
// the concurrent runs took 48–139 Mbit/s of the downlink the real ccp
// flow (0.03–0.44 Mbit/s) left to the others.
//
// The hosts' "pcc" was the PCCproject/PCC-Kernel module (PCC Allegro,
// cc/pcckernel), which campaigns with DatasetServers run in its place:
// its London run 1 opens at 194 packets in flight (2 × the module's
// 524,288 B/s initial rate × SRTT) and grows ×1.10 per second for 20 s,
// the module's 5 % step per two-RTT interval; alone on the downlink it
// delivers 60–86 Mbit/s while retransmitting 80k–625k segments per GB
// (cc/pcckernel's package doc). Without DatasetServers "pcc" is Vivace.
func DatasetCCAs() []DatasetCCA {
	return []DatasetCCA{
		{"bbr", "bbr3", ""}, {"bbr1", "bbr1", ""}, {"bbr2", "bbr2", ""}, {"ccp", "fixed", ""},
		{"cubic", "cubic", ""}, {"hybla", "hybla", ""}, {"leocc", "leocc", ""}, {"pcc", "pcc", "pcc-kernel"},
		{"vegas", "vegas", ""},
	}
}

// datasetCCA is the table's row for a dataset name.
func datasetCCA(name string) (DatasetCCA, bool) {
	for _, d := range DatasetCCAs() {
		if d.Dataset == name {
			return d, true
		}
	}
	return DatasetCCA{}, false
}

// hostsName is the registry name of what the dataset's hosts ran under a
// dataset name, when it differs from what the name selects ("": none).
func hostsName(name string) string {
	d, _ := datasetCCA(name)
	return d.Hosts
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
	if d, ok := datasetCCA(name); ok {
		return d.Registry
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
