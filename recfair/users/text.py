"""Free-text (LLM) recommendations matched to test titles (thesis Paper 6)."""
