"""Labels (TER vs reference), the SVM recommender with Platt-scaled confidence, evaluation, persistence."""
