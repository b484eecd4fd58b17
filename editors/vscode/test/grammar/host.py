# SYNTAX TEST "source.python" "descriptors in Python comments"
# thread layout: (32,4):(4,1)
#                ^^^^^^^^^^^^ comment.line.number-sign.python meta.embedded.descriptor.cute
#                      ^ keyword.operator.layout.cute
# swizzle only: Sw<3,4,3>
#               ^^^^^^^^^ meta.embedded.descriptor.cute
#               ^^ entity.name.type.swizzle.cute
# Returns (m, n): the shape
#         ^^^^^^^ - meta.embedded.descriptor.cute
