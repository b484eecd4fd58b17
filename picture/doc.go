// Package picture draws layouts: the grid of a layout's cells with what
// each holds (an offset, a shared-memory bank, the thread and value of a
// thread-value layout, the owners of a TIRx element), as an SVG image or as
// one self-contained interactive HTML page.
//
// Every input kind is first turned into a Grid, the one model both outputs
// draw, so the SVG and the page show the same cells, labels and colours,
// computed from the same algebra the rest of cute-lsp evaluates.
//
// Arrangement follows CuTe's print_layout and print_latex: mode 0 down the
// rows, mode 1 across the columns, a rank-1 layout as one column. CuTe's
// printers stop at rank 2; for higher ranks the grid is folded as CuTe's
// print_tensor folds a tensor: one rows x columns panel per index of the
// modes after the first two (colexicographic, mode 2 fastest), the panels
// stacked top to bottom.
//
// Sizes are bounded: a Grid holds at most MaxHTMLCells cells in at most
// MaxPanels panels, and an SVG at most MaxSVGCells (an SVG of more cells
// is too large to be read as a picture; the page draws on a canvas and
// stays smooth).
package picture
