// Package bbrfilter holds the two estimators of BBR's model that BBR
// (cc/bbr) and LeoCC (cc/leocc, a BBRv1 derivative) share: the windowed
// max filter of the bottleneck bandwidth (Linux lib/win_minmax.c) and the
// ACK-aggregation ("extra acked") estimator (Linux tcp_bbr.c since 4.20).
// Both are O(1) in time and memory and never allocate.
package bbrfilter
