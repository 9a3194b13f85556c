// Package permalink reads and writes BufferLab's links: the page address's
// fragment (after '#') that says what the browser build opens and where in
// it. A link names an embedded lesson, or carries a scenario or a lesson's
// Markdown compressed in it, and may name a step (counted from 1, as the
// screen counts) and an event within the step.
//
//	#lesson=pinning&step=3&event=12     an embedded lesson, step 3, 12 events into it
//	#scenario=<z>&step=1&event=40       a scenario carried in the link
//	#md=<z>&step=2                      a teacher's lesson carried in the link
//	#sandbox&scenario=<z>               the scenario editor, with this text
//	#embed&lesson=pinning               one lesson for an iframe, without the menu
//
// <z> is the text compressed with DEFLATE (compress/flate, no header) and
// written in unpadded base64url (RFC 4648 §5), which needs no escaping in a
// fragment. Decoding never trusts a link: sizes are bounded before and
// while inflating, and what a link asks for that cannot be had is a notice
// the app shows while it opens the nearest thing, never a failure.
//
// Lengths (Fit): a link of at most 2,000 characters survives anywhere
// (chat apps, mail, old browsers, the sitemaps protocol's 2,048); up to
// 32,768 characters modern browsers keep and show it (Chromium displays at
// most 32 KiB of a URL and accepts 2 MiB; Firefox accepts 1 MB), but chat
// and mail programs may cut it; longer than that, Encode still writes it
// and Fit says it is too long to share: the app offers the file instead.
//
// The package is pure: no syscall/js, tested natively.
package permalink
