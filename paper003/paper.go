package paper003

// paperSays is what seed 003's text reports for each panel (§II.B, the
// paragraphs on Figs. 2–5; the figures themselves are not in the text we
// have, so these are its sentences' numbers, paraphrased).
var paperSays = map[[2]int]string{
	{2, int(Throughput)}:  "BBR has the highest throughput at every location; downlink medians (Q2) exceed 100 Mbit/s in São Paulo and upper whiskers approach 350 Mbit/s in Sydney.",
	{2, int(Retransmits)}: "BBR retransmits far more than CUBIC, Vegas and Hybla, which stay near zero; downlink retransmissions peak in Tokyo (Q3 > 300) and Mumbai (Q3 > 100).",
	{2, int(CWnd)}:        "BBR's cwnd is substantially larger than the others', with the highest variance.",
	{2, int(RTT)}:         "RTT is location-driven, not CCA-driven: highest in São Paulo (Q2 ≈ 350 ms), lowest in Sydney (Q2 ≈ 50 ms).",
	{2, int(RTTVar)}:      "RTT variance stays modest and similar across all CCAs.",
	{3, int(Throughput)}:  "BBR has the highest throughput at every location; uplink upper whiskers exceed 80 Mbit/s.",
	{3, int(Retransmits)}: "BBR's uplink retransmissions reach Q2 ∈ [20, 30] with maxima near 70, concentrated in high-RTT locations; the others stay near zero.",
	{3, int(CWnd)}:        "BBR's cwnd is substantially larger than the others' (min Q2 > 0.4 MB in Sydney for uplink).",
	{3, int(RTT)}:         "RTT is location-driven: highest in São Paulo, lowest in Sydney.",
	{3, int(RTTVar)}:      "RTT variance stays modest and similar across all CCAs.",
	{4, int(Throughput)}:  "BBR has the highest median at every site: over 130 Mbit/s in London and 240 Mbit/s in Sydney, peaks above 350 Mbit/s; Vegas often drops to a near-zero median; Hybla reaches Q2 ≈ 44 Mbit/s in some locations but degrades in São Paulo, London and Ohio.",
	{4, int(Retransmits)}: "BBR retransmits most in every location: upper whiskers above 400 in Mumbai and 200 in Tokyo and Ohio.",
	{4, int(CWnd)}:        "BBR sustains the largest cwnd (often Q2 > 5 MB in the downlink); the others stay window-limited.",
	{4, int(RTT)}:         "RTT only marginally more variable for BBR; highest in São Paulo, lowest in Sydney.",
	{4, int(RTTVar)}:      "RTT variance follows a similar pattern for all four CCAs.",
	{5, int(Throughput)}:  "BBR has the highest median at every site; uplink upper whiskers exceed 35 Mbit/s, Sydney best.",
	{5, int(Retransmits)}: "BBR's uplink medians are above 6 retransmissions, with maxima beyond 30 in high-RTT locations.",
	{5, int(CWnd)}:        "BBR sustains the largest cwnd.",
	{5, int(RTT)}:         "Highest RTT in São Paulo, lowest in Sydney.",
	{5, int(RTTVar)}:      "RTT variance follows a similar pattern for all four CCAs.",
}
