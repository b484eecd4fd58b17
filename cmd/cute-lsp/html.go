package main

import "io"

func init() {
	commands["html"] = command{
		summary: "write a layout's interactive page (hover, zoom, pan; offline): html [-o FILE] EXPR | FILE.cute NAME",
		run: func(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
			return runPicture("html", args, stdout, stderr)
		},
	}
}
