// Package learnedtest holds the tests the learned controllers (cc/orca,
// cc/astraea) share, run from each one's own tests: the checks of the
// model-file parameter (a missing file, the embedded file round-tripped,
// the older format name, a wrong version or input size), the per-ACK
// benchmark and allocation test, the actor benchmark, and the monitor
// periods closing on ACKs through a 200 ms outage (cctest.Path), with a
// Recorder decider that checks the periods it is given.
package learnedtest
