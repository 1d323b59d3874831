"""Pure rules of the product: vocabulary, the sif/1 format, digests, validation.

Standard library only, so every rule can be tested without a database or a screen.
"""
