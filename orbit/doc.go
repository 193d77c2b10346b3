// Package orbit owns constellation geometry for leolab: two-line element
// sets and their SGP4 propagation (near-Earth, after Vallado, Crawford,
// Hujsak and Kelso, "Revisiting Spacetrack Report #3", AIAA 2006-6753),
// Walker-delta shells propagated with Keplerian motion plus J2 secular
// drift (Starlink's shells as filed with the FCC), the frames between them
// (TEME/ECI, ECEF via GMST, WGS-84 geodetic), ground-station look angles,
// visibility above a minimum elevation, the serving satellite chosen per
// reconfiguration slot, bent-pipe and inter-satellite-link (+Grid) paths,
// and the propagation delay of those paths (seed 000, eq. 13).
//
// Everything here is a pure function of its inputs: time is an argument
// (a time.Time instant in UTC), nothing reads a clock, nothing prints.
package orbit
