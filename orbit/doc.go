// Package orbit owns constellation geometry for leolab: two-line element
// sets and their SGP4/SDP4 propagation, Walker-delta shells propagated
// with Keplerian motion plus J2 secular drift (Starlink's shells as filed
// with the FCC), the frames between them (TEME/ECI, ECEF via GMST, WGS-84
// geodetic), ground-station look angles, visibility above a minimum
// elevation, the serving satellite chosen per reconfiguration slot,
// bent-pipe and inter-satellite-link (+Grid) paths, and the propagation
// delay of those paths (seed 000, eq. 13).
//
// SGP4 follows Vallado, Crawford, Hujsak and Kelso, "Revisiting Spacetrack
// Report #3", AIAA 2006-6753 (sgp4.go, WGS-72, "improved" mode). For
// periods of 225 min and more it adds SDP4's deep-space terms: the Sun's
// and Moon's secular and long-period perturbations (sdp4_lunisolar.go)
// and the 12 h and 24 h geopotential resonances (sdp4_resonance.go), wired
// in by sdp4.go. Both reproduce every state of the paper's verification
// set (testdata/tcppver.out) within 1.2e-7 km and fail where it fails.
//
// Everything here is a pure function of its inputs: time is an argument
// (a time.Time instant in UTC), nothing reads a clock, nothing prints.
package orbit
